// Where a thread of another process runs: stops it N times (ptrace), reads its instruction pointer
// and names the mapped file it falls in. For call D: which library the thread that spins beside a
// split's CPU part belongs to (the machine has no perf or gdb).
//   cc -O2 -o /tmp/pc_sample pc_sample.c && /tmp/pc_sample PID TID [SAMPLES]
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>

static void where(int pid, unsigned long long ip) {
    char path[64], line[512];
    snprintf(path, sizeof path, "/proc/%d/maps", pid);
    FILE* maps = fopen(path, "r");
    if (!maps) return;
    while (fgets(line, sizeof line, maps)) {
        unsigned long long lo, hi, off;
        char file[400] = "";
        if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %399s", &lo, &hi, &off, file) >= 3 && ip >= lo && ip < hi) {
            printf("%s+0x%llx\n", file[0] ? file : "[anon]", ip - lo + off);
            fclose(maps);
            return;
        }
    }
    fclose(maps);
    printf("? 0x%llx\n", ip);
}

int main(int argc, char** argv) {
    if (argc < 3) return 2;
    int pid = atoi(argv[1]), tid = atoi(argv[2]), n = argc > 3 ? atoi(argv[3]) : 20;
    if (ptrace(PTRACE_SEIZE, tid, 0, 0) != 0) { perror("seize"); return 1; }
    for (int i = 0; i < n; ++i) {
        struct timespec pause = {0, 20 * 1000 * 1000};
        nanosleep(&pause, NULL);
        if (ptrace(PTRACE_INTERRUPT, tid, 0, 0) != 0) { perror("interrupt"); break; }
        int st;
        if (waitpid(tid, &st, __WALL) < 0) { perror("waitpid"); break; }
        struct user_regs_struct regs;
        if (ptrace(PTRACE_GETREGS, tid, 0, &regs) == 0) where(pid, regs.rip);
        ptrace(PTRACE_CONT, tid, 0, 0);
    }
    ptrace(PTRACE_DETACH, tid, 0, 0);
    return 0;
}
