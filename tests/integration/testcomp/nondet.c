// A Test-Comp task in sv-benchmarks' style: every input comes from a __VERIFIER_nondet_* call,
// and how many calls a path makes depends on the values (two or three inputs per test).
extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern _Bool __VERIFIER_nondet_bool(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  unsigned char c = __VERIFIER_nondet_uchar();
  if (x < -4) {
    if (c == 255)
      return 1;
    return 2;
  }
  _Bool b = __VERIFIER_nondet_bool();
  if (b && x > 100)
    return 3;
  if (!b && c == 7)
    return 4;
  return 0;
}
