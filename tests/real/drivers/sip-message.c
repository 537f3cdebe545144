/* libosip2: a SIP message whose request line and first header are symbolic, parsed. */
#include <osipparser2/osip_parser.h>
#include <stdarg.h>
#include <string.h>

#ifndef INPUT_SIZE
#define INPUT_SIZE 8
#endif
#include "driver.h"

static void no_trace(const char *file, int line, osip_trace_level_t level, const char *format, va_list ap) {
  (void)file, (void)line, (void)level, (void)format, (void)ap;
}

int main(void) {
  char message[64 + INPUT_SIZE];
  const char *rest = " sip:a@b SIP/2.0\r\nVia: SIP/2.0/UDP h\r\n\r\n";
  symbolic_input(message, INPUT_SIZE);
  memcpy(message + INPUT_SIZE, rest, strlen(rest) + 1);
  parser_init();
  // osip's trace stamps each line with the wall-clock time: the model's clock is fixed and a
  // native run's is not, so while it prints no test's output replays equal. It goes to no_trace.
  osip_trace_initialize_func(OSIP_INFO4, no_trace);
  osip_message_t *sip;
  osip_message_init(&sip);
  int rc = osip_message_parse(sip, message, strlen(message));
  osip_message_free(sip);
  return rc == 0 ? 0 : 1;
}
