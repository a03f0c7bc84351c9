// For preprocessor_rules_test.cpp: helpers whose copies after the #include line would differ: one
// tests a macro the header defines after it, one uses the header's file name.
#ifndef UNIT_PREPROC_LATE_H
#define UNIT_PREPROC_LATE_H
int unit_late(void) {
#ifdef UNIT_LATE
    return 1 + (int)get_group_id(0);
#else
    return (int)get_group_id(0);
#endif
}
int unit_named(void) { return (int)sizeof(__FILE__) + (int)get_group_id(0); }
#define UNIT_LATE
#endif
