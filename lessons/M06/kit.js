// kit.js — M06's training plumbing: test accuracy in eval mode (and back to training), a QAT model's accuracy as
// it would be once converted (a converted copy, so evaluating never feeds the observers test data), and the two
// growing charts' data (loss per step, test accuracy per slice) with marks where a switch was thrown.
function accuracy(gm, test) {
  pt.move_exported_model_to_eval(gm);
  const a = pt.evaluate_accuracy(gm, test);
  pt.move_exported_model_to_train(gm);
  return a;
}

function converted_accuracy(prepared, test) {
  const copy = prepared.clone();
  pt.move_exported_model_to_eval(copy);
  return pt.evaluate_accuracy(pt.convert_pt2e(copy), test);
}

// curves: { loss: [per step], steps: [after each slice], accuracy: [per slice], marks: [{ x, label }] }
const loss_view = (title, curves) => ({ title, x_label: 'step', y_label: 'loss', marks: curves.marks,
  series: [{ name: 'cross_entropy', y: Array.from(curves.loss) }] });
const accuracy_view = (title, curves) => ({ title, x_label: 'step', y_label: 'test accuracy (%)', marks: curves.marks,
  series: [{ name: 'test accuracy', x: curves.steps, y: curves.accuracy }] });

return { accuracy, converted_accuracy, loss_view, accuracy_view };
