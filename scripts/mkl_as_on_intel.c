/* oneMKL, as statically linked into torch's CPU library, picks its SGEMM code by CPU vendor: on
 * an AMD CPU it takes a generic path, on an Intel one (AVX-512) its AVX-512 kernels, and the two
 * sum in other orders, so the same training gives other weights. oneMKL has no public setting
 * that selects its Intel code on another vendor (MKL_CBWR's ISA branches are for Intel CPUs; on
 * AMD, MKL_CBWR=AVX512 gave the generic path's bits and COMPATIBLE other bits again). Its vendor
 * check is an exported function that torch's library calls through its PLT, so preloading this
 * file answers "Intel" and MKL takes the Intel path on an AMD CPU with the same instructions.
 * Used only to rebuild a study's painter on another CPU (scripts/mkl_as_on_intel.sh); not part
 * of the product. Measured: experiments/2026-12-02_revise_study/README.md, part 5. */
int mkl_serv_intel_cpu_true(void) { return 1; }
int mkl_serv_intel_cpu(void) { return 1; }
