// Wrong answer: symmetric "because weights use it" -- on one-sided data half the range is wasted.
state.choice = 'MinMax symmetric';
check(state.choice in state.candidates, 'state.choice names one of the candidates');
