# continues B
from executorch.extension.pybindings.portable_lib import _load_for_executorch_from_buffer
from pt2e_course import sqnr, time_forward

program = _load_for_executorch_from_buffer(et.to_executorch().buffer)   # the .pte the device would load
float_model = gm                                   # the exported float model (A deep-copied it for each quantizer)
with torch.no_grad():
    y_float = float_model(held)
print("q/dq", sqnr(y_float, converted["executorch"](held)), time_forward(converted["executorch"], held))
print("xnnpack", sqnr(y_float, program.forward((held,))[0]), time_forward(lambda x: program.forward((x,)), held))
print("float", time_forward(float_model, held))
