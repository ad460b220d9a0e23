# the bar: halfway between the best single layer kept float and the two most sensitive kept float
x = (max(p["model_sqnr"] for p in kept) + curve[2]["model_sqnr"]) / 2
keep_float = []   # TODO: at most two of `layers`
sqnr = quantize_and_compare(gm, quantizer_for(keep_float), *data)
print(f"keeping {keep_float} float: {sqnr:.2f} dB (bar {x:.2f} dB)", "pass" if len(keep_float) <= 2 and sqnr >= x else "not yet")
