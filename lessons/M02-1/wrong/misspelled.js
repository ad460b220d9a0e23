// Wrong answer: the name is not one of the candidates (a class name instead of a candidate key).
state.choice = 'MinMaxObserver';
check(state.choice in state.candidates, 'state.choice names one of the candidates');
