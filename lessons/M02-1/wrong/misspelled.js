// Wrong answer: the name is not one of the candidates (a class name instead of a candidate key).
state.choice = 'MinMaxObserver';
const g = kit.grade(state.choice, state);   // the grading cell's check
check(g.ok, g.message);
