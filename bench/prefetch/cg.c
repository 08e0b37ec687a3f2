/*===- bench/prefetch/cg.c - NAS Parallel Benchmarks CG (conjugate gradient) =*
 *
 * Part of ActiveTime's prefetch-feedback benchmark (bench/prefetch/run.py): a
 * memory-bound program that was not written for the tool.
 *
 * A reimplementation in standard C of the CG kernel of the NAS Parallel
 * Benchmarks, following the serial C version NPB3.3-SER/CG/cg.c (NASA Ames
 * Research Center; D. H. Bailey et al., "The NAS Parallel Benchmarks",
 * RNR-94-007, 1994): makea builds NPB's random sparse symmetric matrix (na
 * outer products of random sparse vectors from randlc, sprnvc and vecset,
 * summed with the shifted identity by sparse into CSR: rowstr, colidx, a);
 * conj_grad runs NPB's 25 CG iterations whose hot loop is the sparse
 * matrix-vector product q[j] = sum a[k] * p[colidx[k]]; the power method's
 * outer iterations estimate zeta. One untimed outer iteration first, then
 * NITER timed ones, as NPB.
 *
 * usage: cg CLASS   (S, W, A, B, C: NPB's classes, zeta verified against
 *                    NPB's published values; train, ref: this benchmark's
 *                    sizes)
 * Prints the iterations and verification (deterministic) and `kernel_ns N`.
 *
 *===----------------------------------------------------------------------===*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int NA, NONZER, NITER;
static double SHIFT, ZETA_VERIFY;
static const double RCOND = 1.0e-1;

static int naa, nzz, firstrow, lastrow, firstcol, lastcol;
static int *colidx, *rowstr, *iv, *arow, *acol;
static double *aelt, *a, *x, *z, *p, *q, *r;
static double amult, tran;

static double randlc(double *X, double A) {
  static int KS = 0;
  static double R23, R46, T23, T46;
  double T1, T2, T3, T4, A1, A2, X1, X2, Z;
  int i, j;
  if (KS == 0) {
    R23 = 1.0; R46 = 1.0; T23 = 1.0; T46 = 1.0;
    for (i = 1; i <= 23; i++) { R23 = 0.50 * R23; T23 = 2.0 * T23; }
    for (i = 1; i <= 46; i++) { R46 = 0.50 * R46; T46 = 2.0 * T46; }
    KS = 1;
  }
  T1 = R23 * A;
  j = T1;
  A1 = j;
  A2 = A - T23 * A1;
  T1 = R23 * *X;
  j = T1;
  X1 = j;
  X2 = *X - T23 * X1;
  T1 = A1 * X2 + A2 * X1;
  j = R23 * T1;
  T2 = j;
  Z = T1 - T23 * T2;
  T3 = T23 * Z + A2 * X2;
  j = R46 * T3;
  T4 = j;
  *X = T3 - T46 * T4;
  return R46 * *X;
}

static int icnvrt(double x, int ipwr2) { return (int)(ipwr2 * x); }

/* A sparse vector of nz distinct random positions in 1..n with random
   values. */
static void sprnvc(int n, int nz, int nn1, double v[], int iv_[]) {
  int nzv = 0, ii, i;
  double vecelt, vecloc;
  while (nzv < nz) {
    vecelt = randlc(&tran, amult);
    vecloc = randlc(&tran, amult);
    i = icnvrt(vecloc, nn1) + 1;
    if (i > n)
      continue;
    int was_gen = 0;
    for (ii = 0; ii < nzv; ii++)
      if (iv_[ii] == i) { was_gen = 1; break; }
    if (was_gen)
      continue;
    v[nzv] = vecelt;
    iv_[nzv] = i;
    nzv = nzv + 1;
  }
}

/* Sets element i of the sparse vector to val, appending it if absent. */
static void vecset(double v[], int iv_[], int *nzv, int i, double val) {
  int k, set = 0;
  for (k = 0; k < *nzv; k++)
    if (iv_[k] == i) { v[k] = val; set = 1; }
  if (!set) {
    v[*nzv] = val;
    iv_[*nzv] = i;
    *nzv = *nzv + 1;
  }
}

#define ACOL(i, j) acol[(long)(i) * (NONZER + 1) + (j)]
#define AELT(i, j) aelt[(long)(i) * (NONZER + 1) + (j)]

/* The outer products summed into CSR, duplicates added, the shifted
   identity on the diagonal. */
static void sparse(int n, int nz, int nzloc[], double rcond, double shift) {
  int nrows = lastrow - firstrow + 1;
  int i, j, j1, j2, nza, k, kk, nzrow, jcol;
  double size, scale, ratio, va;
  for (j = 0; j < nrows + 1; j++)
    rowstr[j] = 0;
  for (i = 0; i < n; i++)
    for (nza = 0; nza < arow[i]; nza++) {
      j = ACOL(i, nza) + 1;
      rowstr[j] = rowstr[j] + arow[i];
    }
  rowstr[0] = 0;
  for (j = 1; j < nrows + 1; j++)
    rowstr[j] = rowstr[j] + rowstr[j - 1];
  nza = rowstr[nrows] - 1;
  if (nza > nz) {
    printf("Space for matrix elements exceeded in sparse\n");
    exit(1);
  }
  for (j = 0; j < nrows; j++) {
    for (k = rowstr[j]; k < rowstr[j + 1]; k++) {
      a[k] = 0.0;
      colidx[k] = -1;
    }
    nzloc[j] = 0;
  }
  size = 1.0;
  ratio = pow(rcond, (1.0 / (double)n));
  for (i = 0; i < n; i++) {
    for (nza = 0; nza < arow[i]; nza++) {
      j = ACOL(i, nza);
      scale = size * AELT(i, nza);
      for (nzrow = 0; nzrow < arow[i]; nzrow++) {
        jcol = ACOL(i, nzrow);
        va = AELT(i, nzrow) * scale;
        if (jcol == j && j == i)
          va = va + rcond - shift;
        int cont40 = 0;
        for (k = rowstr[j]; k < rowstr[j + 1]; k++) {
          if (colidx[k] > jcol) {
            for (kk = rowstr[j + 1] - 2; kk >= k; kk--)
              if (colidx[kk] > -1) {
                a[kk + 1] = a[kk];
                colidx[kk + 1] = colidx[kk];
              }
            colidx[k] = jcol;
            a[k] = 0.0;
            cont40 = 1;
            break;
          } else if (colidx[k] == -1) {
            colidx[k] = jcol;
            cont40 = 1;
            break;
          } else if (colidx[k] == jcol) {
            nzloc[j] = nzloc[j] + 1;
            cont40 = 1;
            break;
          }
        }
        if (!cont40) {
          printf("internal error in sparse: i=%d\n", i);
          exit(1);
        }
        a[k] = a[k] + va;
      }
    }
    size = size * ratio;
  }
  for (j = 1; j < nrows; j++)
    nzloc[j] = nzloc[j] + nzloc[j - 1];
  for (j = 0; j < nrows; j++) {
    j1 = j > 0 ? rowstr[j] - nzloc[j - 1] : 0;
    j2 = rowstr[j + 1] - nzloc[j];
    nza = rowstr[j];
    for (k = j1; k < j2; k++) {
      a[k] = a[nza];
      colidx[k] = colidx[nza];
      nza = nza + 1;
    }
  }
  for (j = 1; j < nrows + 1; j++)
    rowstr[j] = rowstr[j] - nzloc[j - 1];
}

static void makea(int n, int nz) {
  int iouter, ivelt, nzv, nn1;
  int *ivc = malloc((NONZER + 1) * sizeof(int));
  double *vc = malloc((NONZER + 1) * sizeof(double));
  nn1 = 1;
  do
    nn1 = 2 * nn1;
  while (nn1 < n);
  for (iouter = 0; iouter < n; iouter++) {
    nzv = NONZER;
    sprnvc(n, nzv, nn1, vc, ivc);
    vecset(vc, ivc, &nzv, iouter + 1, 0.5);
    arow[iouter] = nzv;
    for (ivelt = 0; ivelt < nzv; ivelt++) {
      ACOL(iouter, ivelt) = ivc[ivelt] - 1;
      AELT(iouter, ivelt) = vc[ivelt];
    }
  }
  sparse(n, nz, iv, RCOND, SHIFT);
  free(ivc);
  free(vc);
}

static void conj_grad(double *rnorm) {
  int j, k, cgit, cgitmax = 25;
  double d, sum, rho, rho0, alpha, beta;
  rho = 0.0;
  for (j = 0; j < naa + 1; j++) {
    q[j] = 0.0;
    z[j] = 0.0;
    r[j] = x[j];
    p[j] = r[j];
  }
  for (j = 0; j < lastcol - firstcol + 1; j++)
    rho = rho + r[j] * r[j];
  for (cgit = 1; cgit <= cgitmax; cgit++) {
    /* q = A.p: the sparse matrix-vector product. */
    for (j = 0; j < lastrow - firstrow + 1; j++) {
      sum = 0.0;
      for (k = rowstr[j]; k < rowstr[j + 1]; k++)
        sum = sum + a[k] * p[colidx[k]];
      q[j] = sum;
    }
    d = 0.0;
    for (j = 0; j < lastcol - firstcol + 1; j++)
      d = d + p[j] * q[j];
    alpha = rho / d;
    rho0 = rho;
    rho = 0.0;
    for (j = 0; j < lastcol - firstcol + 1; j++) {
      z[j] = z[j] + alpha * p[j];
      r[j] = r[j] - alpha * q[j];
    }
    for (j = 0; j < lastcol - firstcol + 1; j++)
      rho = rho + r[j] * r[j];
    beta = rho / rho0;
    for (j = 0; j < lastcol - firstcol + 1; j++)
      p[j] = r[j] + beta * p[j];
  }
  /* The residual norm explicitly: ||r|| = ||x - A.z||. */
  sum = 0.0;
  for (j = 0; j < lastrow - firstrow + 1; j++) {
    d = 0.0;
    for (k = rowstr[j]; k < rowstr[j + 1]; k++)
      d = d + a[k] * z[colidx[k]];
    r[j] = d;
  }
  for (j = 0; j < lastcol - firstcol + 1; j++) {
    d = x[j] - r[j];
    sum = sum + d * d;
  }
  *rnorm = sqrt(sum);
}

static void set_class(const char *c) {
  ZETA_VERIFY = 0;
  if (!strcmp(c, "S")) { NA = 1400; NONZER = 7; NITER = 15; SHIFT = 10; ZETA_VERIFY = 8.5971775078648; }
  else if (!strcmp(c, "W")) { NA = 7000; NONZER = 8; NITER = 15; SHIFT = 12; ZETA_VERIFY = 10.362595087124; }
  else if (!strcmp(c, "A")) { NA = 14000; NONZER = 11; NITER = 15; SHIFT = 20; ZETA_VERIFY = 17.130235054029; }
  else if (!strcmp(c, "B")) { NA = 75000; NONZER = 13; NITER = 75; SHIFT = 60; ZETA_VERIFY = 22.712745482631; }
  else if (!strcmp(c, "C")) { NA = 150000; NONZER = 15; NITER = 75; SHIFT = 110; ZETA_VERIFY = 28.973605592845; }
  /* This benchmark's sizes: 10^6 rows (a p vector of 8 MiB that no core's
     L2 holds, read at the random columns of colidx: 6.9 ns per nonzero
     against class A's 1.1 ns) with fewer nonzeros per outer product and one
     outer iteration, so that the timed part takes about a second; train,
     the profiling run, 0.4 M rows. */
  else if (!strcmp(c, "train")) { NA = 400000; NONZER = 2; NITER = 1; SHIFT = 500; }
  else if (!strcmp(c, "ref")) { NA = 1000000; NONZER = 2; NITER = 1; SHIFT = 500; }
  else {
    fprintf(stderr, "usage: cg S|W|A|B|C|train|ref\n");
    exit(2);
  }
}

static long long now_ns(void) {
  struct timespec ts;
  timespec_get(&ts, TIME_UTC);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv) {
  int i, j, k, it;
  double zeta, rnorm = 0, norm_temp1, norm_temp2;
  long long t0, t1;
  if (argc != 2) {
    fprintf(stderr, "usage: cg S|W|A|B|C|train|ref\n");
    return 2;
  }
  set_class(argv[1]);
  naa = NA;
  nzz = NA * (NONZER + 1) * (NONZER + 1);
  firstrow = 0; lastrow = NA - 1; firstcol = 0; lastcol = NA - 1;
  colidx = malloc((size_t)nzz * sizeof(int));
  a = malloc((size_t)nzz * sizeof(double));
  rowstr = malloc((NA + 1) * sizeof(int));
  iv = malloc(NA * sizeof(int));
  arow = malloc(NA * sizeof(int));
  acol = malloc((size_t)NA * (NONZER + 1) * sizeof(int));
  aelt = malloc((size_t)NA * (NONZER + 1) * sizeof(double));
  x = malloc((NA + 2) * sizeof(double));
  z = malloc((NA + 2) * sizeof(double));
  p = malloc((NA + 2) * sizeof(double));
  q = malloc((NA + 2) * sizeof(double));
  r = malloc((NA + 2) * sizeof(double));
  if (!colidx || !a || !rowstr || !iv || !arow || !acol || !aelt || !x || !z || !p || !q || !r) {
    fprintf(stderr, "cg: out of memory\n");
    return 1;
  }
  tran = 314159265.0;
  amult = 1220703125.0;
  zeta = randlc(&tran, amult);
  makea(naa, nzz);
  for (j = 0; j < lastrow - firstrow + 1; j++)
    for (k = rowstr[j]; k < rowstr[j + 1]; k++)
      colidx[k] = colidx[k] - firstcol;
  printf("NAS CG: class %s, %d rows, %d nonzeros, %d iterations\n", argv[1], NA,
         rowstr[NA] - rowstr[0], NITER);
  for (i = 0; i < NA + 1; i++)
    x[i] = 1.0;
  for (j = 0; j < lastrow - firstrow + 1; j++)
    q[j] = z[j] = r[j] = p[j] = 0.0;
  zeta = 0.0;

  /* One untimed iteration: touches every page, as NPB. */
  for (it = 1; it <= 1; it++) {
    conj_grad(&rnorm);
    norm_temp1 = 0.0;
    norm_temp2 = 0.0;
    for (j = 0; j < lastcol - firstcol + 1; j++) {
      norm_temp1 = norm_temp1 + x[j] * z[j];
      norm_temp2 = norm_temp2 + z[j] * z[j];
    }
    norm_temp2 = 1.0 / sqrt(norm_temp2);
    for (j = 0; j < lastcol - firstcol + 1; j++)
      x[j] = norm_temp2 * z[j];
  }
  for (i = 0; i < NA + 1; i++)
    x[i] = 1.0;
  zeta = 0.0;

  t0 = now_ns();
  for (it = 1; it <= NITER; it++) {
    conj_grad(&rnorm);
    norm_temp1 = 0.0;
    norm_temp2 = 0.0;
    for (j = 0; j < lastcol - firstcol + 1; j++) {
      norm_temp1 = norm_temp1 + x[j] * z[j];
      norm_temp2 = norm_temp2 + z[j] * z[j];
    }
    norm_temp2 = 1.0 / sqrt(norm_temp2);
    zeta = SHIFT + 1.0 / norm_temp1;
    printf("iteration %5d  ||r|| %20.14E  zeta %20.13f\n", it, rnorm, zeta);
    for (j = 0; j < lastcol - firstcol + 1; j++)
      x[j] = norm_temp2 * z[j];
  }
  t1 = now_ns();

  if (ZETA_VERIFY != 0) {
    double err = fabs(zeta - ZETA_VERIFY) / ZETA_VERIFY;
    printf("verification %s: zeta %20.13E, reference %20.13E\n",
           err <= 1.0e-10 ? "SUCCESSFUL" : "FAILED", zeta, ZETA_VERIFY);
    if (err > 1.0e-10)
      return 1;
  } else {
    printf("verification: no reference zeta for this size; zeta %20.13E\n", zeta);
  }
  printf("kernel_ns %lld\n", t1 - t0);
  return 0;
}
