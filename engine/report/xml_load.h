/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_XML_LOAD_H
#define RDMASCN_XML_LOAD_H

#include <libxml/xmlwriter.h>

/*
 * libxml2's text writer, loaded (dlopen) the first time a JUnit file is
 * written rather than at every start: with its own dependencies (ICU,
 * libstdc++, liblzma, zlib) it was half of the shared libraries rdmascn
 * loaded, and the largest part of the dynamic loader's time in every
 * command, under emulation a tenth of a second a process (docs/
 * setup-speed-log.md).  Only --junit needs it.
 */
struct rs_xml {
	void (*SetGenericErrorFunc)(void *ctx, xmlGenericErrorFunc handler);
	xmlOutputBufferPtr (*OutputBufferCreateFile)(FILE *file,
						     xmlCharEncodingHandlerPtr
						     encoder);
	int (*OutputBufferClose)(xmlOutputBufferPtr out);
	xmlTextWriterPtr (*NewTextWriter)(xmlOutputBufferPtr out);
	void (*FreeTextWriter)(xmlTextWriterPtr writer);
	int (*SetIndent)(xmlTextWriterPtr writer, int indent);
	int (*SetIndentString)(xmlTextWriterPtr writer, const xmlChar *str);
	int (*StartDocument)(xmlTextWriterPtr writer, const char *version,
			     const char *encoding, const char *standalone);
	int (*EndDocument)(xmlTextWriterPtr writer);
	int (*StartElement)(xmlTextWriterPtr writer, const xmlChar *name);
	int (*EndElement)(xmlTextWriterPtr writer);
	int (*WriteElement)(xmlTextWriterPtr writer, const xmlChar *name,
			    const xmlChar *content);
	int (*WriteAttribute)(xmlTextWriterPtr writer, const xmlChar *name,
			      const xmlChar *content);
	int (*WriteFormatAttribute)(xmlTextWriterPtr writer,
				    const xmlChar *name, const char *format,
				    ...);
	int (*WriteString)(xmlTextWriterPtr writer, const xmlChar *content);
	int (*WriteFormatString)(xmlTextWriterPtr writer, const char *format,
				 ...);
	int (*Flush)(xmlTextWriterPtr writer);
};

/* The functions above, from the libxml2 the build was compiled against
 * (its soname); 0, or -ELIBACC with dlerror()'s reason in @err. */
int rs_xml_load(const struct rs_xml **ret_xml, char *err, size_t errlen);

#endif
