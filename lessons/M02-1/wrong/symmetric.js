// Wrong answer: symmetric "because weights use it" -- on one-sided data half the range is wasted.
state.choice = 'MinMax symmetric';
const g = kit.grade(state.choice, state);   // the grading cell's check
check(g.ok, g.message);
