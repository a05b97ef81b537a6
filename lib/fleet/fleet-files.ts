import { FLEET_PAGE_FILES } from '../runner/report-files.ts'

/** The files a fleet writes at the top of its report folder; each deployment's own reports are in `<label>/`. */
export const FLEET_FILES = [...FLEET_PAGE_FILES, 'junit.xml'] as const

export type FleetFile = (typeof FLEET_FILES)[number]
