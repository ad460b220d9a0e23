move_exported_model_to_eval(prepared)
quantized = convert_pt2e(prepared)
qat_4bit = evaluate_accuracy(quantized, test_set)
for name, acc in [("float", float_accuracy), ("int8 PTQ", ptq_int8), ("4-bit PTQ", ptq_4bit), ("4-bit QAT", qat_4bit)]:
    print(name, acc)
