// Wrong answer: trusts section B ("Histogram clips the tail, so it must win") without measuring.
state.choice = 'Histogram affine';
const g = kit.grade(state.choice, state);   // the grading cell's check
check(g.ok, g.message);
