// Wrong: rounds log2 of the scale to the NEAREST integer, so about half the time the scale goes down and the
// largest values clip.
class PowerOfTwoObserver extends pt.MinMaxObserver {
  calculate_qparams() {
    const amax = Math.max(-this.min_val.item(), this.max_val.item(), 0);
    const needed = Math.max(amax / this.quant_max, this.config.eps);
    return { scale: [2 ** Math.round(Math.log2(needed))], zero_point: [0] };
  }
}
state.PowerOfTwoObserver = PowerOfTwoObserver;
const r = kit.gradePlugged(PowerOfTwoObserver, 'tiny');
check(r.ok, r.message);
