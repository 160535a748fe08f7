/* The shared library of the fuzz corpus's seed program.  */
double lib_scale(double x, int n)
{
    double y = x * n;
    if (y != y)
        return 0;
    return y < 0 ? -y : y / 3;
}

unsigned lib_sum(const unsigned *values, unsigned count)
{
    unsigned sum = 0;
    for (unsigned i = 0; i < count; i++) {
        if (values[i] % 3 == 1)
            sum += values[i];
        else
            sum ^= values[i] >> 3;
    }
    return sum;
}
