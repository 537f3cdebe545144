/* detect_edges: edge detection on an N x N grey-level image with the Sobel-Feldman operator:
 * at each interior pixel the horizontal and vertical gradients gx, gy are the 3 x 3 Sobel
 * kernels applied to its neighbourhood, and the edge strength |gx| + |gy| (the usual integer
 * stand-in for the Euclidean magnitude) is clipped to 255. The border is left at 0.
 *
 * Benchmark of "Taming the Hydra" (cfm-se), Table 2. The pixels are symbolic bytes. Per
 * interior pixel there are three symbolic branches, each one conditional branch at -O0: the two
 * absolute values and the clipping. Plain symbolic execution forks on each; its queries are
 * sums of many pixels, harder than the other programs'.
 *
 * Paper's input sizes: N = 3, 4, 5 (the image is N x N; (N - 2)^2 interior pixels).
 *   -DN=n      the side (default 3)
 *   -DMERGE    klee_open_merge()/klee_close_merge() around the three tests of a pixel (the
 *              paper's SM config)
 */
#include <klee/klee.h>

#ifndef N
#define N 3
#endif

static const int kx[3][3] = {{-1, 0, 1}, {-2, 0, 2}, {-1, 0, 1}};
static const int ky[3][3] = {{-1, -2, -1}, {0, 0, 0}, {1, 2, 1}};

static void sobel(unsigned char in[N][N], unsigned char out[N][N]) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      out[i][j] = 0;
  for (int i = 1; i < N - 1; i++)
    for (int j = 1; j < N - 1; j++) {
      int gx = 0, gy = 0;
      for (int a = -1; a <= 1; a++)
        for (int b = -1; b <= 1; b++) {
          gx += kx[a + 1][b + 1] * in[i + a][j + b];
          gy += ky[a + 1][b + 1] * in[i + a][j + b];
        }
#ifdef MERGE
      klee_open_merge();
#endif
      if (gx < 0)
        gx = -gx;
      if (gy < 0)
        gy = -gy;
      int magnitude = gx + gy;
      if (magnitude > 255)
        magnitude = 255;
#ifdef MERGE
      klee_close_merge();
#endif
      out[i][j] = (unsigned char)magnitude;
    }
}

int main(void) {
  unsigned char in[N][N], out[N][N];
  klee_make_symbolic(in, sizeof in, "image");
  sobel(in, out);
  int edges = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      edges += out[i][j] >= 128;
  return edges;
}
