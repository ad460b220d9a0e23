from pt2e_course import keep_one_layer_float, sqnr_vs_layers_kept_float, quantize_and_compare

kept = keep_one_layer_float(gm, quantizer_for, layers, data)
curve = sqnr_vs_layers_kept_float(gm, quantizer_for, ranking, data)
for p in curve:
    print(p["kept_float"], p["model_sqnr"])
print("first and last", quantize_and_compare(gm, quantizer_for([layers[0], layers[-1]]), *data))
for p in kept:
    print(p["layer"], "alone float:", p["model_sqnr"])
