# continues A
from pt2e_course import annotation_table, observer_nodes, table

for name in ("xnnpack", "x86"):
    table(annotation_table(prepared[name]), ["node", "op", "inputs", "output"])    # x86: conv outputs NoneType
    print(name, len(observer_nodes(prepared[name])), "observers")
