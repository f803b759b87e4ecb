import { z } from 'zod';
import { LANGUAGE_INVALID, LANGUAGES } from './messages';

/**
 * A language in a request. Apart from messages/, which every screen's texts read and which is kept
 * free of zod so that they load without it (decision record 095).
 */
export const languageSchema = z.enum(LANGUAGES, { error: LANGUAGE_INVALID });
