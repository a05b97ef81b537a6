/** The files a fleet writes at the top of its report folder; each deployment's own reports are in `<label>/`. */
export const FLEET_FILES = ['fleet.json', 'fleet.md', 'fleet.html', 'junit.xml'] as const

export type FleetFile = (typeof FLEET_FILES)[number]
