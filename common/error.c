// SPDX-License-Identifier: MIT
/* Names and sentences for the HP_ error codes (include/hartpool/error.h). */
#include <hartpool/error.h>

const char *hp_error_name(int code)
{
	switch (code) {
#define HP_ERROR_NAME_(name, value, text)                                      \
	case value:                                                            \
		return #name;
		HP_ERRORS(HP_ERROR_NAME_)
#undef HP_ERROR_NAME_
	}
	return "HP_UNKNOWN_ERROR";
}

const char *hp_error_text(int code)
{
	switch (code) {
#define HP_ERROR_TEXT_(name, value, text)                                      \
	case value:                                                            \
		return text;
		HP_ERRORS(HP_ERROR_TEXT_)
#undef HP_ERROR_TEXT_
	}
	return "unknown error";
}
