/** The tenant's repurpose template for social platforms: shape, allowed values and defaults. */
export const PLATFORMS = ['linkedin', 'twitter', 'whatsapp', 'instagram'] as const;
export const TONES = [
  'professional',
  'casual',
  'friendly',
  'formal',
  'enthusiastic',
  'informative',
  'humorous',
  'inspirational',
] as const;
export const LENGTHS = ['short', 'medium', 'long'] as const;
export const MAX_HASHTAGS_LIMIT = 30;
export const CTA_TEMPLATE_MAX = 500;
export const HASHTAG_STYLE_MAX = 200;

export type Platform = (typeof PLATFORMS)[number];
export type Tone = (typeof TONES)[number];
export type Length = (typeof LENGTHS)[number];

export interface PlatformTemplate {
  tone: Tone;
  length: Length;
  ctaTemplate: string;
  hashtagStyle: string;
  maxHashtags: number;
}

export interface RepurposeDefaults {
  language: string;
  tone: Tone;
  length: Length;
}

export interface RepurposeTemplate {
  tenantId: string;
  defaults: RepurposeDefaults;
  platforms: Record<Platform, PlatformTemplate>;
  updatedBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * Each platform's defaults, built fresh per call: a literal costs a fraction of copying a shared
 * constant, and every update builds the default for the store's find-or-create.
 */
const defaultPlatforms = (): Record<Platform, PlatformTemplate> => ({
  linkedin: {
    tone: 'professional',
    length: 'medium',
    ctaTemplate: 'Read the full article: {{url}}',
    hashtagStyle: 'Industry keywords in PascalCase at the end of the post',
    maxHashtags: 5,
  },
  twitter: {
    tone: 'casual',
    length: 'short',
    ctaTemplate: 'More: {{url}}',
    hashtagStyle: 'One or two trending tags woven into the text',
    maxHashtags: 3,
  },
  whatsapp: {
    tone: 'friendly',
    length: 'medium',
    ctaTemplate: 'Tap to read more: {{url}}',
    hashtagStyle: 'Topic tags on their own line at the end',
    maxHashtags: 6,
  },
  instagram: {
    tone: 'friendly',
    length: 'medium',
    ctaTemplate: 'Link in bio: {{url}}',
    hashtagStyle: 'A block of lowercase community tags after the caption',
    maxHashtags: 8,
  },
});

export function defaultRepurposeTemplate(tenantId: string, now: Date): RepurposeTemplate {
  return {
    tenantId,
    defaults: { language: 'en', tone: 'professional', length: 'medium' },
    platforms: defaultPlatforms(),
    updatedBy: null,
    createdAt: now,
    updatedAt: now,
  };
}
