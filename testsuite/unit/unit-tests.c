/* Runs every unit-test suite of libsampler and sampler-report's statistics; exits non-zero on any failure.  */
#include <stdlib.h>

#include <check.h>

Suite *config_suite(void);
Suite *settings_suite(void);
Suite *countdown_suite(void);
Suite *process_suite(void);
Suite *observe_suite(void);
Suite *report_suite(void);
Suite *stats_suite(void);
Suite *values_suite(void);
Suite *paths_suite(void);
Suite *release_suite(void);

int main(void)
{
    SRunner *runner = srunner_create(config_suite());

    srunner_add_suite(runner, settings_suite());
    srunner_add_suite(runner, countdown_suite());
    srunner_add_suite(runner, process_suite());
    srunner_add_suite(runner, observe_suite());
    srunner_add_suite(runner, report_suite());
    srunner_add_suite(runner, stats_suite());
    srunner_add_suite(runner, values_suite());
    srunner_add_suite(runner, paths_suite());
    srunner_add_suite(runner, release_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
