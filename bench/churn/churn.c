// Thread churn: creates and joins WAVE threads at a time for SECONDS seconds,
// each calling a short function a few hundred times, and prints the
// creation rate, the growth of its resident memory and the CPU time of the
// profiler's own threads (the code-sample drainer, the sampler, the
// flusher: every thread whose name does not start with "churn").
// usage: churn SECONDS [WAVE] [CALLS]
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
static _Thread_local volatile long sink;
static int calls = 200;

NOINLINE void leaf(long i) { sink += i & 1; }
NOINLINE void middle(long i) {
  for (int j = 0; j < 4; ++j)
    leaf(i + j);
}
NOINLINE void *worker(void *arg) {
  for (int i = 0; i < calls; ++i)
    middle(i);
  return arg;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static long rss_kib(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  long pages = 0, res = 0;
  if (f) {
    if (fscanf(f, "%ld %ld", &pages, &res) != 2)
      res = 0;
    fclose(f);
  }
  return res * (sysconf(_SC_PAGESIZE) / 1024);
}

// CPU seconds of this process's threads not named churn*.
static double other_threads_cpu(void) {
  double total = 0;
  DIR *d = opendir("/proc/self/task");
  struct dirent *e;
  long hz = sysconf(_SC_CLK_TCK);
  while (d && (e = readdir(d))) {
    if (e->d_name[0] == '.')
      continue;
    char path[300], buf[1024];
    snprintf(path, sizeof(path), "/proc/self/task/%s/stat", e->d_name);
    FILE *f = fopen(path, "r");
    if (!f)
      continue;
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = 0;
    char *open = strchr(buf, '('), *close = strrchr(buf, ')');
    if (!open || !close || !strncmp(open + 1, "churn", 5))
      continue;
    unsigned long ut = 0, st = 0;
    // Fields after the name: state, then 10 more, then utime and stime.
    if (sscanf(close + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
               &ut, &st) == 2)
      total += (double)(ut + st) / hz;
  }
  if (d)
    closedir(d);
  return total;
}

int main(int argc, char **argv) {
  double secs = argc > 1 ? atof(argv[1]) : 10;
  int wave = argc > 2 ? atoi(argv[2]) : 8;
  if (argc > 3)
    calls = atoi(argv[3]);
  if (wave < 1 || wave > 1024)
    wave = 8;
  prctl(PR_SET_NAME, "churn-main", 0, 0, 0);
  pthread_t *t = malloc(sizeof(pthread_t) * wave);
  long rss0 = rss_kib(), created = 0;
  double t0 = now(), elapsed;
  while ((elapsed = now() - t0) < secs) {
    for (int i = 0; i < wave; ++i)
      if (pthread_create(&t[i], 0, worker, 0) == 0)
        ++created;
      else
        t[i] = 0;
    for (int i = 0; i < wave; ++i)
      if (t[i])
        pthread_join(t[i], 0);
  }
  printf("threads %ld seconds %.2f rate %.0f rss_growth_mib %.1f "
         "profiler_cpu_share %.4f\n",
         created, elapsed, created / elapsed, (rss_kib() - rss0) / 1024.0,
         other_threads_cpu() / elapsed);
  free(t);
  return 0;
}
