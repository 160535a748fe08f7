#pragma GCC system_header
int helper (int x);
