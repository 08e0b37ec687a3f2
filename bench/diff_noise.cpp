//===- diff_noise.cpp - False alarms of `activetime diff`'s noise rule ----===//
//
// Part of ActiveTime. Simulates unchanged entries: per-run values of both
// sides drawn from one normal distribution, and counts how often a delta of
// the means exceeds the noise threshold, for `diff`'s rule (Welch's 95%
// half-width, profile::welchSpread) and, for comparison, the larger side's
// range of the runs. Prints the rates per run count and factor; the figures
// docs/user-guide.md ("Comparing two builds") quotes come from here.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Diff.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

using namespace activetime::profile;

static double range(const std::vector<double> &V) {
  auto [Min, Max] = std::minmax_element(V.begin(), V.end());
  return *Max - *Min;
}

int main() {
  constexpr int Trials = 200000;
  std::mt19937_64 Gen(42);
  std::normal_distribution<double> Normal(0, 1);
  std::printf("false alarms of unchanged entries, %d trials each\n", Trials);
  std::printf("runs  factor  welch   range\n");
  for (auto [NB, NN] : {std::pair{2, 2}, {2, 3}, {3, 3}, {5, 5}, {10, 10}})
    for (double K : {1.0, 2.0}) {
      int Welch = 0, Range = 0;
      for (int I = 0; I < Trials; ++I) {
        std::vector<double> B(NB), N(NN);
        double D = 0;
        for (double &X : B)
          D -= (X = Normal(Gen)) / NB;
        for (double &X : N)
          D += (X = Normal(Gen)) / NN;
        Welch += std::fabs(D) > K * welchSpread(B, N);
        Range += std::fabs(D) > K * std::max(range(B), range(N));
      }
      std::printf("%d+%-2d  %6.1f  %5.1f%%  %5.1f%%\n", NB, NN, K,
                  100.0 * Welch / Trials, 100.0 * Range / Trials);
    }
  return 0;
}
