// sv-benchmarks' shape of a task for Test-Comp's error-coverage property: reach_error defined
// by the task itself, failing an assertion.
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "reach.c", 4, "reach_error"); }
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x == 42)
    reach_error();
  return 0;
}
