// Exports of a real mode=trace run of threads.c (main + worker threads):
// the Chrome trace has one named track per traced thread with nested
// complete slices and passes the trace-event key checks; speedscope's evented
// profiles validate against its published schema; the HTML report of the
// same run embeds its own document with the report's functions.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %S/threads.c -o threads -lpthread
// RUN: env ACTIVETIME_OPTIONS=mode=trace:output=trace.raw ./threads
// RUN: %activetime export --format=chrome -o trace.json trace.raw
// RUN: %validate chrome trace.json | FileCheck --check-prefix=CHROME %s
// RUN: %activetime export --format=speedscope -o ss.json trace.raw
// RUN: %validate schema %speedscope_schema ss.json | FileCheck --check-prefix=SS %s
// RUN: %activetime export --format=json -o doc.json trace.raw
// RUN: %validate schema %export_schema doc.json | FileCheck --check-prefix=DOC %s
// RUN: %activetime report --html report.html trace.raw
// RUN: FileCheck --check-prefix=HTML %s < report.html
// CHROME: M {{[0-9]+}} 0 'process_name'   {"name": "threads (pid
// CHROME: M {{[0-9]+}} {{[0-9]+}} 'thread_name'
// CHROME: X {{[0-9]+}} {{[0-9]+}} 'main' ts={{[0-9.e+]+}} dur=
// CHROME: X {{[0-9]+}} {{[0-9]+}} 'work' ts={{[0-9.e+]+}} dur=
// CHROME: chrome trace ok: {{.*}}M={{[0-9]+}} X={{[0-9]+}}
// SS: valid against file-format-schema.json
// DOC: valid against activetime-export version 1
// HTML: "schema":"activetime-html"
// HTML: "name":"work"
