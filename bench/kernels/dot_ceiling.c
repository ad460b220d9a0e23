// dot_ceiling.c — what one x86-64 core gives the instruction pair V8 emits for our GEMM's inner step
// (i32x4.dot_i16x8_s → vpmaddwd, i32x4.add → vpaddd; Node 20's V8 11.3 does not fuse them into AVX-VNNI's
// vpdpwssd), next to vpmaddwd alone and vpdpwssd, in dots a cycle; the clock from a chain of dependent imul
// (3 cycles each). Times are CPU time, so preemption by the shared machine's other processes is left out.
// Native only (x86-64 with AVX-VNNI); not part of the build. docs/performance.md "Integer kernels" uses it:
//
//   cc -O1 bench/kernels/dot_ceiling.c -o /tmp/dot_ceiling && /tmp/dot_ceiling
#include <stdio.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

// Eight independent accumulators, so no chain of latencies limits the loop: only the ports do.
#define PAIR(acc, tmp) "vpmaddwd %%xmm14, %%xmm15, %%xmm" #tmp "\n vpaddd %%xmm" #tmp ", %%xmm" #acc ", %%xmm" #acc "\n"
#define DOT(acc) "vpmaddwd %%xmm14, %%xmm15, %%xmm" #acc "\n"
#define VNNI(acc) "vpdpwssd %%xmm14, %%xmm15, %%xmm" #acc "\n"
#define CLOBBER "rcx", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11"

int main(void) {
  const long n = 100000000, m = 300000000;
  long x = 3;
  double t[5];
  t[0] = now();
  __asm__ volatile("mov %0, %%rcx\n1:\n" PAIR(0, 8) PAIR(1, 9) PAIR(2, 10) PAIR(3, 11) PAIR(4, 8) PAIR(5, 9) PAIR(6, 10)
                   PAIR(7, 11) "dec %%rcx\n jnz 1b\n" ::"r"(n) : CLOBBER);
  t[1] = now();
  __asm__ volatile("mov %0, %%rcx\n1:\n" DOT(0) DOT(1) DOT(2) DOT(3) DOT(4) DOT(5) DOT(6) DOT(7)
                   "dec %%rcx\n jnz 1b\n" ::"r"(n) : CLOBBER);
  t[2] = now();
  // vpdpwssd's accumulator is its input: twelve chains, so its latency (5 cycles) does not limit the loop.
  __asm__ volatile("mov %0, %%rcx\n1:\n" VNNI(0) VNNI(1) VNNI(2) VNNI(3) VNNI(4) VNNI(5) VNNI(6) VNNI(7) VNNI(8) VNNI(9)
                   VNNI(10) VNNI(11) "dec %%rcx\n jnz 1b\n" ::"r"(n) : CLOBBER);
  t[3] = now();
  __asm__ volatile("mov %1, %%rcx\n1:\n imul %0, %0\n imul %0, %0\n imul %0, %0\n imul %0, %0\n sub $4, %%rcx\n jnz 1b\n"
                   : "+r"(x) : "r"(m) : "rcx");
  t[4] = now();
  const double ghz = 3.0 * m / (t[4] - t[3]) / 1e9, dots = 8.0 * n;
  const double pair = dots / (t[1] - t[0]) / 1e9;
  printf("clock %.2f GHz; dots a cycle: vpmaddwd + vpaddd %.2f, vpmaddwd alone %.2f, vpdpwssd %.2f; "
         "vpmaddwd + vpaddd = %.1f GMAC/s (%.0f %% of 54.4)\n",
         ghz, pair / ghz, dots / (t[2] - t[1]) / 1e9 / ghz, 1.5 * dots / (t[3] - t[2]) / 1e9 / ghz, 8 * pair,
         100 * 8 * pair / 54.4);
  return 0;
}
