// Wrong: always the next power of two strictly above (floor + 1), which doubles a scale that was exact, and no
// eps floor (nothing but zeros gives a scale of 0).
class PowerOfTwoObserver extends pt.MinMaxObserver {
  calculate_qparams() {
    const amax = Math.max(-this.min_val.item(), this.max_val.item(), 0);
    return { scale: [2 ** (Math.floor(Math.log2(amax / this.quant_max)) + 1)], zero_point: [0] };
  }
}
state.PowerOfTwoObserver = PowerOfTwoObserver;
const r = kit.gradePlugged(PowerOfTwoObserver, 'tiny');
check(r.ok, r.message);
