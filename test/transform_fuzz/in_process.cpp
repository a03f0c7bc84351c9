#include "in_process.hpp"

#include "parse.hpp"
#include "transform/transform.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstring>
#include <exception>
#include <fstream>

namespace fuzz {

namespace {

// Whether `source` defines or names the identifier `name` + `suffix` (not one that merely ends so:
// the variants of "unlimited" are no variants of "limited").
bool namesIdentifier(const std::string& source, const std::string& name, const char* suffix) {
    const std::string id = name + suffix;
    for (size_t at = source.find(id); at != std::string::npos; at = source.find(id, at + 1)) {
        const char before = at ? source[at - 1] : ' ';
        if (!std::isalnum(static_cast<unsigned char>(before)) && before != '_') return true;
    }
    return false;
}

// What the child reports through its pipe: "parsed kernels split" then, on a broken promise, a line.
std::string checkPromises(const Program& p, CaseResult& r) {
    using namespace hetero::transform;
    const ProgramAnalysis a = analyze(p.sources, p.options);
    r.parsed = a.parsed;
    r.kernels = static_cast<unsigned>(a.kernels.size());
    bool anySplittable = false;
    for (const auto& k : a.kernels) {
        if (k.splittable && !a.parsed) return "kernel " + k.name.substr(0, 80) + " is splittable in a program that did not parse";
        if (!k.splittable && k.reason.empty()) return "kernel " + k.name.substr(0, 80) + " is refused without a reason";
        anySplittable = anySplittable || k.splittable;
    }
    if (!anySplittable) return "";
    const Variants v = makeVariants(p.sources, p.options, a);
    for (const auto& k : a.kernels) {
        const bool chunk = namesIdentifier(v.source, k.name, "__hetero_chunk");
        const bool abort = namesIdentifier(v.source, k.name, "__hetero_abort");
        if (chunk != abort) return "kernel " + k.name.substr(0, 80) + " has only one of its two variants";
        if (chunk && !k.splittable) return "kernel " + k.name.substr(0, 80) + " has variants but is refused";
        if (chunk) ++r.split;
    }
    if (r.split == 0) return "";
    auto reparsed = detail::parseProgram({v.source}, p.options);
    if (!reparsed->ok) return "the variants program does not parse:\n" + reparsed->log.substr(0, 2000);
    return "";
}

void writeAll(int fd, const std::string& s) {
    size_t done = 0;
    while (done < s.size()) {
        const ssize_t n = write(fd, s.data() + done, s.size() - done);
        if (n <= 0) return;
        done += static_cast<size_t>(n);
    }
}

// The hetero-transform tool on the mutant: only a crash (a signal) breaks a promise.
std::string runTool(const Program& p, const std::string& cli, const std::string& scratchDir) {
    std::vector<std::string> files;
    for (size_t i = 0; i < p.sources.size(); ++i) {
        files.push_back(scratchDir + "/transform-fuzz-" + std::to_string(getpid()) + "-" + std::to_string(i) + ".cl");
        std::ofstream(files.back(), std::ios::binary) << p.sources[i];
    }
    const pid_t pid = fork();
    if (pid == 0) {
        std::vector<char*> argv = {const_cast<char*>(cli.c_str()), const_cast<char*>("--all"),
                                   const_cast<char*>("--options"), const_cast<char*>(p.options.c_str())};
        for (auto& f : files) argv.push_back(f.data());
        argv.push_back(nullptr);
        const int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        execv(cli.c_str(), argv.data());
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    for (auto& f : files) unlink(f.c_str());
    if (WIFSIGNALED(status)) return "hetero-transform died of signal " + std::to_string(WTERMSIG(status));
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127) return "hetero-transform could not be run: " + cli;
    return "";
}

}  // namespace

CaseResult checkInChild(const Program& p, unsigned hangSeconds, const std::string& cli, const std::string& scratchDir) {
    CaseResult r;
    int fds[2];
    if (pipe(fds) != 0) {
        r.kind = CaseResult::Violation;
        r.detail = "pipe failed";
        return r;
    }
    const pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        CaseResult mine;
        std::string problem;
        // libclang's own parse first: it runs on libclang's thread (8 MB of stack), where clang itself
        // overflows on a few thousand nested statements, as PoCL's compiler does on the same text.
        // A crash before this line is clang's limit, not the transform's.
        hetero::transform::detail::parseProgram(p.sources, p.options);
        writeAll(fds[1], "libclang parsed\n");
        try {
            problem = checkPromises(p, mine);
        } catch (const std::exception& e) {
            problem = std::string("the transform threw: ") + e.what();
        } catch (...) {
            problem = "the transform threw a non-standard exception";
        }
        if (problem.empty() && !cli.empty()) problem = runTool(p, cli, scratchDir);
        writeAll(fds[1], std::to_string(mine.parsed) + " " + std::to_string(mine.kernels) + " " +
                             std::to_string(mine.split) + "\n" + problem);
        _exit(problem.empty() ? 0 : 3);
    }
    close(fds[1]);
    std::string reply;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(hangSeconds);
    bool hung = false;
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            hung = true;
            break;
        }
        pollfd pfd{fds[0], POLLIN, 0};
        if (poll(&pfd, 1, static_cast<int>(left.count())) <= 0) continue;
        char buf[4096];
        const ssize_t n = read(fds[0], buf, sizeof buf);
        if (n <= 0) break;  // the child has ended (or closed its pipe)
        reply.append(buf, static_cast<size_t>(n));
    }
    close(fds[0]);
    if (hung) kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    if (hung) {
        r.kind = CaseResult::Hang;
        r.detail = "no answer within " + std::to_string(hangSeconds) + " s";
        return r;
    }
    const std::string marker = "libclang parsed\n";
    const bool pastParser = reply.compare(0, marker.size(), marker) == 0;
    if (pastParser) reply.erase(0, marker.size());
    const size_t eol = reply.find('\n');
    if (eol != std::string::npos) {
        unsigned parsed = 0;
        sscanf(reply.c_str(), "%u %u %u", &parsed, &r.kernels, &r.split);
        r.parsed = parsed != 0;
    }
    if (WIFSIGNALED(status) && !pastParser) {
        r.kind = CaseResult::ParserCrash;
        r.detail = std::string("libclang's parser died of signal ") + std::to_string(WTERMSIG(status));
    } else if (WIFSIGNALED(status)) {
        r.kind = CaseResult::Crash;
        r.detail = std::string("died of signal ") + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")";
    } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        r.kind = CaseResult::Violation;
        r.detail = eol == std::string::npos ? "exit status " + std::to_string(WEXITSTATUS(status)) : reply.substr(eol + 1);
    }
    return r;
}

}  // namespace fuzz
