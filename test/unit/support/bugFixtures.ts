import type { Bug } from '../../../shared/domain/bug/bug.ts';

/**
 * A stored bug for rules that read ids without looking them up: product, component, version,
 * milestone, assignee and reporter all 1, no QA contact, CONFIRMED, one comment, filed on
 * 2025-01-01 and last changed the day after. Tests that need a catalogue's ids use
 * `aBug` (bugCatalogue.ts), which builds on this one.
 */
export function plainBug(id: number, overrides: Partial<Bug> = {}): Bug {
  return {
    id,
    alias: null,
    summary: `Bug ${id}`,
    status: 'CONFIRMED',
    resolution: '',
    isConfirmed: true,
    productId: 1,
    componentId: 1,
    versionId: 1,
    targetMilestoneId: 1,
    bugType: 'defect',
    priority: '---',
    severity: 'normal',
    platform: 'PC',
    opSys: 'Linux',
    assigneeId: 1,
    reporterId: 1,
    qaContactId: null,
    url: '',
    whiteboard: '',
    deadline: null,
    creationTime: '2025-01-01T00:00:00Z',
    lastChangeTime: '2025-01-02T00:00:00Z',
    filedVia: 'api',
    isCcAccessible: true,
    isCreatorAccessible: true,
    estimatedTime: 0,
    remainingTime: 0,
    actualTime: 0,
    ccIds: [],
    keywordIds: [],
    groupIds: [],
    dependsOn: [],
    blocks: [],
    regressedBy: [],
    regressions: [],
    duplicates: [],
    dupeOf: null,
    seeAlso: [],
    flags: [],
    commentCount: 1,
    attachmentCount: 0,
    custom: {},
    tags: {},
    ...overrides,
  };
}
