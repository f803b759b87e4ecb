import { describe, expect, it } from 'vitest';
import { countOngoing, filterProjects, tabOf } from './projects.rules';

const projects = [
  { name: 'Riverside Apartments', status: 'ongoing' as const },
  { name: 'Northgate School', status: 'planned' as const },
  { name: 'Old Mill Renovation', status: 'completed' as const },
  { name: 'RIVER Walk', status: 'ongoing' as const },
];

describe('project tabs', () => {
  it('counts planned projects as ongoing', () => {
    expect(tabOf('planned')).toBe('ongoing');
    expect(tabOf('completed')).toBe('completed');
    expect(countOngoing(projects)).toBe(3);
  });
});

describe('project search', () => {
  it('keeps the tab and matches a name substring ignoring case', () => {
    expect(filterProjects(projects, 'ongoing', 'river').map((project) => project.name)).toEqual(['Riverside Apartments', 'RIVER Walk']);
    expect(filterProjects(projects, 'completed', 'river')).toEqual([]);
    expect(filterProjects(projects, 'completed', 'MILL').map((project) => project.name)).toEqual(['Old Mill Renovation']);
  });
  it('shows the whole tab for a blank search', () => {
    expect(filterProjects(projects, 'ongoing', '  ')).toHaveLength(3);
  });
});
