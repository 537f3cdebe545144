// Heap-heavy code without symbolic pointers: a symbolic line copied to the heap, split into
// tokens kept in a linked list of heap nodes, then summed. Every access has a known object, so
// the relocatable model has nothing to gain here: this measures what it costs.
#include "cairn.h"

#include <stdlib.h>
#include <string.h>

struct token {
  char *text;
  int length;
  struct token *next;
};

static struct token *tokenize(const char *line) {
  struct token *head = NULL, **tail = &head;
  for (const char *p = line; *p;) {
    while (*p == ' ')
      p++;
    if (!*p)
      break;
    const char *start = p;
    while (*p && *p != ' ')
      p++;
    struct token *t = malloc(sizeof *t);
    t->length = (int)(p - start);
    t->text = malloc((size_t)t->length + 1);
    memcpy(t->text, start, (size_t)t->length);
    t->text[t->length] = 0;
    t->next = NULL;
    *tail = t;
    tail = &t->next;
  }
  return head;
}

int main(void) {
  char input[12];
  klee_make_symbolic(input, sizeof input, "input");
  input[11] = 0;
  for (int i = 0; i < 11; i++)
    klee_assume(input[i] == ' ' | input[i] == 'a' | input[i] == 0);
  char *line = malloc(sizeof input);
  strcpy(line, input);
  int tokens = 0, longest = 0;
  for (struct token *t = tokenize(line); t;) {
    struct token *next = t->next;
    tokens++;
    if (t->length > longest)
      longest = t->length;
    free(t->text);
    free(t);
    t = next;
  }
  free(line);
  return tokens * 10 + longest;
}
