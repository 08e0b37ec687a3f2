// An instrumented function run on a child process's own stack.
int child_main(void* arg);
