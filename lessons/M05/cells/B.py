from pt2e_course import layer_names, quantize_one_layer_alone, rank_by_sensitivity

data = (calibration, held_x)
layers = layer_names(gm)                           # conv1, conv2, conv3, conv4, fc
alone = quantize_one_layer_alone(gm, quantizer_for, layers, data)
ranking = rank_by_sensitivity(alone)               # most sensitive first
for p in alone:
    print(p["layer"], "alone quantized:", p["model_sqnr"])
print("ranking", ranking)
