# continues A
from pt2e_course import draw_partition

et = lowered["executorch"]
info = get_delegation_info(et.exported_program().graph_module)
draw_partition(converted["executorch"], info, "the partition: delegated to XNNPACK vs float")
print(et.exported_program().graph_module.code)    # executorch_call_delegate for the int8 part, float ops around it
