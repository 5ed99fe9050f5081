// End-of-life data for the demo's products, as endoflife.date's API v1 answered it
// (generated 2025-08-20); served on loopback so the demo works offline.
export type RecordedRelease = { name: string; releaseDate: string | null; isLts: boolean | null; isEol: boolean; eolFrom: string | null; isMaintained: boolean | null; latest: { name: string; date: string | null } | null };

export const RECORDED_EOL_GENERATED_AT = "2025-08-20T06:14:02+00:00";

export const RECORDED_EOL_PRODUCTS: Record<string, { label: string; releases: RecordedRelease[] }> = {
  nginx: {
    label: "nginx",
    releases: [
      {name: "1.29", releaseDate: "2025-06-24", isLts: false, isEol: false, eolFrom: null, isMaintained: true, latest: {name: "1.29.1", date: "2025-08-13"}},
      {name: "1.28", releaseDate: "2025-04-23", isLts: false, isEol: false, eolFrom: null, isMaintained: true, latest: {name: "1.28.0", date: "2025-04-23"}},
      {name: "1.27", releaseDate: "2024-05-28", isLts: false, isEol: true, eolFrom: "2025-06-24", isMaintained: false, latest: {name: "1.27.5", date: "2025-04-16"}},
      {name: "1.26", releaseDate: "2024-04-23", isLts: false, isEol: true, eolFrom: "2025-04-23", isMaintained: false, latest: {name: "1.26.3", date: "2025-02-05"}},
      {name: "1.25", releaseDate: "2023-05-23", isLts: false, isEol: true, eolFrom: "2024-05-29", isMaintained: false, latest: {name: "1.25.5", date: "2024-04-16"}},
      {name: "1.24", releaseDate: "2023-04-11", isLts: false, isEol: true, eolFrom: "2024-04-23", isMaintained: false, latest: {name: "1.24.0", date: "2023-04-11"}},
      {name: "1.22", releaseDate: "2022-05-24", isLts: false, isEol: true, eolFrom: "2023-04-11", isMaintained: false, latest: {name: "1.22.1", date: "2022-10-19"}},
    ],
  },
  postgresql: {
    label: "PostgreSQL",
    releases: [
      {name: "17", releaseDate: "2024-09-26", isLts: false, isEol: false, eolFrom: "2029-11-08", isMaintained: true, latest: {name: "17.6", date: "2025-08-14"}},
      {name: "16", releaseDate: "2023-09-14", isLts: false, isEol: false, eolFrom: "2028-11-09", isMaintained: true, latest: {name: "16.10", date: "2025-08-14"}},
      {name: "15", releaseDate: "2022-10-13", isLts: false, isEol: false, eolFrom: "2027-11-11", isMaintained: true, latest: {name: "15.14", date: "2025-08-14"}},
      {name: "14", releaseDate: "2021-09-30", isLts: false, isEol: false, eolFrom: "2026-11-12", isMaintained: true, latest: {name: "14.19", date: "2025-08-14"}},
      {name: "13", releaseDate: "2020-09-24", isLts: false, isEol: false, eolFrom: "2025-11-13", isMaintained: true, latest: {name: "13.22", date: "2025-08-14"}},
      {name: "12", releaseDate: "2019-10-03", isLts: false, isEol: true, eolFrom: "2024-11-21", isMaintained: false, latest: {name: "12.22", date: "2024-11-21"}},
      {name: "11", releaseDate: "2018-10-18", isLts: false, isEol: true, eolFrom: "2023-11-09", isMaintained: false, latest: {name: "11.22", date: "2023-11-09"}},
    ],
  },
  redis: {
    label: "Redis",
    releases: [
      {name: "8.2", releaseDate: "2025-08-04", isLts: false, isEol: false, eolFrom: null, isMaintained: true, latest: {name: "8.2.0", date: "2025-08-04"}},
      {name: "8.0", releaseDate: "2025-05-02", isLts: false, isEol: false, eolFrom: null, isMaintained: true, latest: {name: "8.0.3", date: "2025-07-06"}},
      {name: "7.4", releaseDate: "2024-07-29", isLts: false, isEol: false, eolFrom: null, isMaintained: true, latest: {name: "7.4.5", date: "2025-07-06"}},
      {name: "7.2", releaseDate: "2023-08-15", isLts: false, isEol: false, eolFrom: "2026-02-28", isMaintained: true, latest: {name: "7.2.10", date: "2025-07-06"}},
      {name: "6.2", releaseDate: "2021-02-22", isLts: false, isEol: false, eolFrom: "2027-02-28", isMaintained: true, latest: {name: "6.2.19", date: "2025-07-06"}},
      {name: "7.0", releaseDate: "2022-04-27", isLts: false, isEol: true, eolFrom: "2024-07-29", isMaintained: false, latest: {name: "7.0.15", date: "2024-01-09"}},
      {name: "6.0", releaseDate: "2020-04-30", isLts: false, isEol: true, eolFrom: "2022-04-27", isMaintained: false, latest: {name: "6.0.20", date: "2023-07-10"}},
    ],
  },
};
