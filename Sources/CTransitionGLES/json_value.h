/* A small JSON reader for layers' content: the parsed value as a tree. Internal. */
#ifndef TD_GLES_JSON_VALUE_H
#define TD_GLES_JSON_VALUE_H

#include <stddef.h>

enum json_kind { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

/* A value. Strings are NUL-terminated UTF-8; an object's members keep the text's order, with
 * their names in `names`. */
typedef struct json_value {
    enum json_kind kind;
    double number;         /* JSON_NUMBER, and JSON_BOOL as 0 or 1 */
    char *string;          /* JSON_STRING */
    size_t count;          /* JSON_ARRAY, JSON_OBJECT: the items or members */
    struct json_value *items;
    char **names;          /* JSON_OBJECT: each member's name */
} json_value;

/* Parses `text` (the whole of it, one value); NULL when it is not JSON or nests deeper than
 * 64 levels. Free with json_free. */
json_value *tdg_json_parse(const char *text);

void tdg_json_free(json_value *value);

/* The member `name` of an object, or NULL. */
const json_value *tdg_json_member(const json_value *object, const char *name);

/* The member `name` when it is a string, else NULL. */
const char *tdg_json_string_member(const json_value *object, const char *name);

#endif
