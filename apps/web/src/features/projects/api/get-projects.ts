import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ExpandedProject, Project } from '@siteboard/shared';
import { api } from '../../../lib/api-client';

/** With `expand`, each project carries its major tasks and their subtasks: one request for a whole screen. */
export const getProjects = () => api<Project[]>('/api/projects/');
export const getExpandedProjects = () => api<ExpandedProject[]>('/api/projects/', { query: { expand: 'major_tasks' } });

export const getProjectsQueryOptions = () => queryOptions({ queryKey: ['projects'], queryFn: getProjects });
export const getExpandedProjectsQueryOptions = () => queryOptions({ queryKey: ['projects', 'expanded'], queryFn: getExpandedProjects });

export const useProjects = () => useQuery(getProjectsQueryOptions());
export const useExpandedProjects = () => useQuery(getExpandedProjectsQueryOptions());
