/** The media type of JSON-LD documents, as the spec names it (general rule 3). */
export const JSON_LD_CONTENT_TYPE = 'application/ld+json; charset=utf-8';

