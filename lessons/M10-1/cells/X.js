// Exercise: write the power-of-two observer.
// PowerOfTwoObserver keeps MinMaxObserver's statistics (min_val, max_val); calculate_qparams() must return
//   scale      the smallest power of two 2^k with max(|min_val|, |max_val|) / 2^k <= quant_max (nothing clips)
//              and 2^k >= eps (this.config.eps), as a list of one number;
//   zero_point [0] (symmetric).
// Tools: this.min_val.item(), this.max_val.item(), this.quant_max, this.config.eps, Math.log2, Math.ceil.
// The check below plugs your class into the VPU's config (every activation and weight spec) and compares.
class PowerOfTwoObserver extends pt.MinMaxObserver {
  calculate_qparams() {
    const { scale, zero_point } = super.calculate_qparams();   // MinMax's own scale: no power of two yet
    // TODO: round it to the VPU's rule
    return { scale, zero_point };
  }
}
state.PowerOfTwoObserver = PowerOfTwoObserver;
const r = kit.gradePlugged(PowerOfTwoObserver, 'tiny');   // the grading cell's rules, on one model
check(r.ok, r.message);
