// For preproc_headers.cl: a macro defined after the helper that tests it, so a copy placed after
// the #include line would take the other branch; and a helper returning __LINE__ (the header's
// line, which a copy in the program cannot reproduce).
#ifndef PREPROC_LATE_DEFINE_H
#define PREPROC_LATE_DEFINE_H
static int late_tag(void)
{
#ifdef LATE_OFFSET
    return (int)get_local_size(0) + LATE_OFFSET;
#else
    return (int)get_local_size(0);
#endif
}
static int header_line(void)
{
    return __LINE__ * 100 + (int)get_group_id(0);
}
#define LATE_OFFSET 7
#endif
