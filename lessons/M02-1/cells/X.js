// Exercise: which observer gives the best SQNR on state.act?
// Candidates (keys of state.candidates):
//   'MinMax affine', 'MinMax symmetric', 'Histogram affine', 'Histogram symmetric'
// Each value is a function that builds a fresh observer: const obs = state.candidates[name]();
// Tools: kit.qdq(values, scale, zp) -> { values, clipped }; pt.sqnr(a, b) -> dB.
//
// Predict first, then measure. Put the name of your pick in state.choice.
state.choice = null;   // TODO
show.text(`choice: ${state.choice}`);
const g = kit.grade(state.choice, state);   // the grading cell's check
check(g.ok, g.message);
