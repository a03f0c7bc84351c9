// For preprocessor_rules_test.cpp: a helper whose copy after the #include line is exact.
#ifndef UNIT_PREPROC_CLEAN_H
#define UNIT_PREPROC_CLEAN_H
int unit_clean(void) { return (int)get_group_id(0); }
#endif
