#ifndef LUNAR_CEDITLINE_SHIM_H
#define LUNAR_CEDITLINE_SHIM_H

#include <stdio.h>
#include <histedit.h>

/* libedit's el_set, el_get and history are variadic, which Swift cannot call: these wrap the
   calls Lunar's prompt makes. */

typedef char *(*lunar_prompt_function)(EditLine *);
typedef unsigned char (*lunar_key_function)(EditLine *, int);

/* An editor in emacs mode, reading `in` and drawing on `out`, with `history` for the arrow keys,
   ~/.editrc read, and signals handled (the terminal is restored before a signal ends the
   process). */
static inline EditLine *lunar_el_open(const char *name, FILE *in, FILE *out, FILE *err, History *list,
                                      lunar_prompt_function prompt, void *client) {
  EditLine *el = el_init(name, in, out, err);
  if (el == NULL) return NULL;
  el_set(el, EL_CLIENTDATA, client);
  el_set(el, EL_EDITOR, "emacs");
  el_set(el, EL_SIGNAL, 1);
  el_set(el, EL_SAFEREAD, 1);
  el_set(el, EL_PROMPT, prompt);
  el_set(el, EL_HIST, history, list);
  el_source(el, NULL);
  return el;
}

static inline void *lunar_el_client(EditLine *el) {
  void *client = NULL;
  el_get(el, EL_CLIENTDATA, &client);
  return client;
}

/* Binds `key` (in el_set's notation, like "^D") to a function of the caller's. */
static inline void lunar_el_bind(EditLine *el, const char *name, const char *help, lunar_key_function function,
                                 const char *key) {
  el_set(el, EL_ADDFN, name, help, function);
  el_set(el, EL_BIND, key, name, NULL);
}

/* ctrl-C (and the other signal keys) as keys while editing, not signals: the caller binds them. */
static inline void lunar_el_keys_not_signals(EditLine *el) {
  el_set(el, EL_SETTY, "-d", "-isig", NULL);
}

/* One key per el_gets when on: the caller decides when to read. Turning it on puts the terminal in
   raw mode and draws the prompt with an empty line; turning it off restores the terminal. */
static inline void lunar_el_unbuffered(EditLine *el, int on) { el_set(el, EL_UNBUFFERED, on); }

/* Draws the prompt and the line again, from the cursor's row, as if nothing were on screen. */
static inline void lunar_el_refresh(EditLine *el) { el_set(el, EL_REFRESH); }

/* A history of at most `size` lines, a line equal to the one before it kept once. */
static inline History *lunar_history_open(int size) {
  History *list = history_init();
  if (list == NULL) return NULL;
  HistEvent event;
  history(list, &event, H_SETSIZE, size);
  history(list, &event, H_SETUNIQUE, 1);
  return list;
}

static inline int lunar_history_enter(History *list, const char *line) {
  HistEvent event;
  return history(list, &event, H_ENTER, line);
}

static inline int lunar_history_load(History *list, const char *path) {
  HistEvent event;
  return history(list, &event, H_LOAD, path);
}

static inline int lunar_history_save(History *list, const char *path) {
  HistEvent event;
  return history(list, &event, H_SAVE, path);
}

#endif
