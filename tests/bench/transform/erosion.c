/* erosion: binary erosion of an N x N image in the style of Phillips' "Image Processing in C"
 * (2nd ed., 2008; mask-free, with a threshold): a foreground pixel of the interior turns to
 * background when more than THRESHOLD of its eight neighbours are background. The border is
 * copied unchanged.
 *
 * Benchmark of "Taming the Hydra" (cfm-se), Table 2. The pixels are symbolic bytes, each
 * assumed to be 0 (background) or FG (foreground). Per interior pixel there are two symbolic
 * branches, nested: the pixel test, whose side holds the loop counting the neighbours (an
 * if-then holding a loop, which the paper's transform cannot meld, while state merging can),
 * and the threshold test inside it. The neighbour count itself has no branch.
 *
 * Paper's input sizes: N = 4, 5, 6 (the image is N x N; (N - 2)^2 interior pixels).
 *   -DN=n      the side (default 4)
 *   -DMERGE    klee_open_merge()/klee_close_merge() around the pixel test (the paper's SM config)
 *   -DVERIFY   check the post-condition afterwards: no output pixel is above its input pixel
 */
#include <klee/klee.h>
#include <assert.h>

#ifndef N
#define N 4
#endif

#define FG 255
#define THRESHOLD 2

static void erode(unsigned char in[N][N], unsigned char out[N][N]) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      out[i][j] = in[i][j];
  for (int i = 1; i < N - 1; i++)
    for (int j = 1; j < N - 1; j++) {
#ifdef MERGE
      klee_open_merge();
#endif
      if (in[i][j] == FG) {
        int count = 0;
        for (int a = -1; a <= 1; a++)
          for (int b = -1; b <= 1; b++)
            count += in[i + a][j + b] == 0;
        if (count > THRESHOLD)
          out[i][j] = 0;
      }
#ifdef MERGE
      klee_close_merge();
#endif
    }
}

int main(void) {
  unsigned char in[N][N], out[N][N];
  klee_make_symbolic(in, sizeof in, "image");
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      klee_assume((in[i][j] == 0) | (in[i][j] == FG));
  erode(in, out);
#ifdef VERIFY
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      assert(out[i][j] <= in[i][j]);
#endif
  return out[N / 2][N / 2];
}
