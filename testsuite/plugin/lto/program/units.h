int classify (int x);
double running_mean (double mean, int value, int n);
int twice (int x);
int negate (int x);
int apply (int (*f) (int), int x);
void audit (int acc)
#ifdef __SAMPLER__
  __attribute__ ((sampled))
#endif
  ;
