/* The commands of sampler-submit other than a sending round.  */
#ifndef SAMPLER_SUBMIT_COMMANDS_H
#define SAMPLER_SUBMIT_COMMANDS_H

/* sampler-submit status [--store DIR]: how each store stands.  */
int status_command(int argc, char **argv);

/* sampler-submit consent PRODUCT [yes|no] [--system]: shows or records
   the user's (or, as root, the system's) answer; `no' also deletes the
   user's pending reports of PRODUCT.  */
int consent_command(int argc, char **argv);

#endif
