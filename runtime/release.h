/* A release configuration (docs/remote.md): what a shipped, instrumented
   release does in the field when the environment says nothing.  The
   maintainer writes it as a text file given to sampler-gcc when the
   release is linked; sampler-release checks it and turns it into an
   object that the executable carries; the runtime reads it back from
   there, and writes a copy into the report store for sampler-submit.
   All three use this one parser.

   The text: one setting per line, `key = value', blanks around the `='
   and at both ends ignored; empty lines and lines whose first non-blank
   character is `#' are comments.  Every key at most once.

   Nothing here allocates or uses stdio streams (snprintf only), so the
   runtime can parse while it configures the process.  */
#ifndef SAMPLER_RELEASE_H
#define SAMPLER_RELEASE_H

#include <stdbool.h>
#include <stddef.h>

/* Room for each text setting, its NUL included.  */
#define SAMPLER_RELEASE_NAME_SIZE 65       /* product, version: 64 bytes */
#define SAMPLER_RELEASE_URL_SIZE 513       /* collector: 512 bytes */
#define SAMPLER_RELEASE_KEY_SIZE 129       /* upload-key: 16 to 128 bytes */
#define SAMPLER_RELEASE_PATH_SIZE 1024     /* submit-at-exit */
/* A configuration file (and its embedded copy) is at most this long.  */
#define SAMPLER_RELEASE_TEXT_MAX 65536
/* Room for a message of sampler_release_parse.  */
#define SAMPLER_RELEASE_ERROR_SIZE 512

/* Where consent may be recorded (the `consent' setting): bits.  */
#define SAMPLER_CONSENT_USER 1u
#define SAMPLER_CONSENT_SYSTEM 2u

/* The system-wide consent directory: /etc/sampler/consent/<product>.  */
#define SAMPLER_SYSTEM_CONSENT_DIR "/etc/sampler/consent"

enum sampler_store_base {
    SAMPLER_STORE_STATE,    /* $XDG_STATE_HOME, else ~/.local/state */
    SAMPLER_STORE_CACHE,    /* $XDG_CACHE_HOME, else ~/.cache */
};

struct sampler_release {
    char product[SAMPLER_RELEASE_NAME_SIZE];
    char version[SAMPLER_RELEASE_NAME_SIZE];
    long sparsity;                       /* the field's default, >= 1 */
    unsigned send_schemes;               /* bit 1 << scheme id: may leave */
    char collector[SAMPLER_RELEASE_URL_SIZE];
    char upload_key[SAMPLER_RELEASE_KEY_SIZE];
    unsigned consent;                    /* SAMPLER_CONSENT_* bits, not 0 */
    enum sampler_store_base store;
    unsigned long store_max_reports;
    unsigned long long store_max_bytes;
    char submit_at_exit[SAMPLER_RELEASE_PATH_SIZE];   /* "": not started */
    unsigned long submit_interval;       /* seconds between sending rounds */
    unsigned long submit_batch;          /* reports per round, at most */
};

/* Parses TEXT (LENGTH bytes).  Returns true and fills *RELEASE (defaults
   for what the text leaves out) when it is valid; otherwise false, with
   the line of the first problem in *LINE (0: the text as a whole, such as
   a missing setting) and the problem in ERROR (one line, no newline, at
   most SAMPLER_RELEASE_ERROR_SIZE bytes).  */
bool sampler_release_parse(const char *text, size_t length, struct sampler_release *release,
                           unsigned long *line, char *error);

/* Writes RELEASE as text that sampler_release_parse reads back to the
   same configuration: every setting, in a fixed order.  Returns the
   length (without the NUL written after it), or -1 when SIZE is too
   small.  */
long sampler_release_format(const struct sampler_release *release, char *buffer, size_t size);

/* Whether URL is a valid `collector' (an https URL; http only to this
   machine); if not, says why in ERROR (SAMPLER_RELEASE_ERROR_SIZE).  */
bool sampler_release_check_url(const char *url, char *error);

/* Whether NAME is a valid product or version name.  */
bool sampler_release_check_name(const char *name);

/* Consent files (docs/remote.md): the first line that is neither empty
   nor a comment says `yes' or `no'.  */
enum sampler_consent_answer {
    SAMPLER_CONSENT_ABSENT,     /* no file */
    SAMPLER_CONSENT_YES,
    SAMPLER_CONSENT_NO,
    SAMPLER_CONSENT_INVALID,    /* unreadable, or anything else: counts as no */
};

/* The answer of the consent file at PATH (system calls only).  */
enum sampler_consent_answer sampler_consent_read(const char *path);

/* Whether a release whose consent rule is RULE samples, given the user's
   and the system's answers: any `no' (or invalid file) withdraws; else a
   `yes' where the rule looks gives consent; else there is none.  */
bool sampler_consent_given(unsigned rule, enum sampler_consent_answer user,
                           enum sampler_consent_answer system);

/* The base directory of kind BASE from the XDG variable's value and HOME
   (either may be NULL): the variable when it is an absolute path, else
   HOME's fallback (.local/state, .cache), HOME being absolute.  Writes it
   to PATH (SIZE bytes); false when there is none or it does not fit.  */
bool sampler_xdg_directory(enum sampler_store_base base, const char *xdg_value,
                           const char *home, char *path, size_t size);

/* The user's consent file for PRODUCT: $XDG_CONFIG_HOME (absolute), else
   $HOME/.config, then /sampler/consent/PRODUCT.  */
bool sampler_user_consent_path(const char *xdg_config_home, const char *home,
                               const char *product, char *path, size_t size);

/* The release's store below the base directory BASE:
   BASE/sampler/<product>/<version>.  */
bool sampler_store_directory(const struct sampler_release *release, const char *base,
                             char *path, size_t size);

/* The id of the scheme called NAME (schemes.def), or -1.  */
int sampler_scheme_by_name(const char *name, size_t length);

/* The name of scheme ID, or NULL.  */
const char *sampler_scheme_name(unsigned id);

#endif
