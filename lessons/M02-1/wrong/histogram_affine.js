// Wrong answer: trusts section B ("Histogram clips the tail, so it must win") without measuring.
state.choice = 'Histogram affine';
check(state.choice in state.candidates, 'state.choice names one of the candidates');
