#ifndef LUNAR_CCURL_SHIM_H
#define LUNAR_CCURL_SHIM_H

#include <curl/curl.h>

/* curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: these wrap the
   calls Lunar's HTTP transport makes, one per type of argument. */

/* libcurl's global set-up (TLS libraries included), once per process before any transfer. */
static inline CURLcode lunar_curl_start(void) { return curl_global_init(CURL_GLOBAL_DEFAULT); }

static inline CURLcode lunar_curl_set_long(CURL *easy, CURLoption option, long value) {
  return curl_easy_setopt(easy, option, value);
}

static inline CURLcode lunar_curl_set_size(CURL *easy, CURLoption option, curl_off_t value) {
  return curl_easy_setopt(easy, option, value);
}

static inline CURLcode lunar_curl_set_pointer(CURL *easy, CURLoption option, const void *value) {
  return curl_easy_setopt(easy, option, value);
}

static inline CURLcode lunar_curl_set_write(CURL *easy, CURLoption option, curl_write_callback function) {
  return curl_easy_setopt(easy, option, function);
}

static inline CURLcode lunar_curl_set_progress(CURL *easy, curl_xferinfo_callback function) {
  return curl_easy_setopt(easy, CURLOPT_XFERINFOFUNCTION, function);
}

static inline CURLcode lunar_curl_get_long(CURL *easy, CURLINFO info, long *value) {
  return curl_easy_getinfo(easy, info, value);
}

/* Only http and https, for the request and for any redirect: libcurl knows many more schemes
   (file, ftp, gopher…), none of which a request checked as an http(s) URL may reach. */
static inline CURLcode lunar_curl_only_http(CURL *easy) {
#if CURL_AT_LEAST_VERSION(7, 85, 0)
  CURLcode code = curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
  if (code != CURLE_OK) return code;
  return curl_easy_setopt(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
#else
  CURLcode code = curl_easy_setopt(easy, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
  if (code != CURLE_OK) return code;
  return curl_easy_setopt(easy, CURLOPT_REDIR_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
}

#endif
