// The HTML report and the JSON export of an OpenMP run carry the parallel
// regions' diagnosis (the imbalance program of imbalance.c).
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O1 -g -fopenmp %S/imbalance.c -o imbalance
// RUN: env OMP_NUM_THREADS=4 OMP_WAIT_POLICY=passive ./imbalance
// RUN: %activetime export --format=json -o doc.json activetime.imbalance.*.raw
// RUN: %validate schema %export_schema doc.json | FileCheck --check-prefix=DOC %s
// RUN: %activetime report --html report.html activetime.imbalance.*.raw
// RUN: FileCheck %s < report.html
// DOC: valid against activetime-export version 1
// CHECK: "schema":"activetime-parallel"
// CHECK: "location":"imbalance.c:
// CHECK: "diagnosis":"imbalance / granularity too coarse"
