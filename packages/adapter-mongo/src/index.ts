/** @cms/adapter-mongo — MongoDB storage adapter of the CMS service: one repository per core port on the official driver. */
export {};
